"""Code the tests share and are not tests themselves: helpers, the console's database fixtures,
an SMTP server, Chromium printing, the print lint and PDF comparison, the xdist scheduler and a
toy third game."""
