"""What's My Number?'s printed kit: ``planner`` (the kit's pages), ``player_sheets``
(order forms, deduction sheets), ``number_slips`` (the secret-number slips), ``host_sheets``
(the turn-report grids), ``register`` (the secret register), ``examples`` (the worked examples)
and ``people`` (the players and answers as printed, shared with the reports and the console).
"""
