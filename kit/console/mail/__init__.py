"""The console's mail to players: their addresses and sealed links (``book``), the letters'
texts (``letters``) and the service that writes turn letters and reminders into the outbox
(``postbox``), on top of the game-agnostic ``kit.mail``."""
