"""E-mail: letters (``letter``), the SMTP server they go through (``smtp``), and the outbox in
the game's database that sends each message exactly once (``outbox``)."""
