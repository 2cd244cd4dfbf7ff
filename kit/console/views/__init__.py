"""What the console's HTML pages share, apart from the requests that ask for it.

``said``: problems as a page says them, in its language and with their field.
"""
