"""The students' side of a class poll (``/vote?room=CODE``): a hidden page, opened from the QR code."""

from smoothviz.ui import kit, poll

kit.use_app_navigation()  # a phone's first request may reach a fresh server
poll.student_page()
