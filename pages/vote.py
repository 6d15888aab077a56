"""The students' side of a class poll (``/vote?room=CODE``): a hidden page, opened from the QR code."""

from smoothviz.ui import poll
from smoothviz.ui.kit import _use_app_navigation

# a phone's first request may reach a fresh server: run under app.py's navigation (see the kit)
_use_app_navigation()
poll.student_page()
