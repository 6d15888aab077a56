"""The students' side of a class poll (``/vote?room=CODE``): a hidden page, opened from the QR code."""

from smoothviz.ui import poll

poll.student_page()
