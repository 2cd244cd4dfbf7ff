"""What the console's HTML pages share, apart from the requests that ask for it.

``guard``: the game master's cookie and the signed CSRF token every form carries.
``said``: problems as a page says them, in its language and with their field.
"""
