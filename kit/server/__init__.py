"""The HTTP layer ``kit serve`` stands on, game-agnostic and kit-agnostic: the request guard
(``guard``), security headers, error pages and body reading (``http``), the app's answers to
problems (``answers``), Hypercorn's connection handling (``wire``), the fair render line
(``pool``), the addresses a server listens on (``addresses``), the limits it accepts
(``limits``), language negotiation (``language``), the Jinja2 environment (``templates``)
and answers sent compressed (``packing``).
It imports nothing of the site, the console, mail, the database or the games."""
