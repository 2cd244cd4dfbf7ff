"""The console's mail to players: their addresses and sealed links (``book``), the letters'
texts (``letters``), the service that writes turn letters and reminders into the outbox
(``postbox``), the invitations of a new game (``invitations``) and the receipts of a
player's own orders (``receipts``), on top of the game-agnostic ``kit.mail``."""
