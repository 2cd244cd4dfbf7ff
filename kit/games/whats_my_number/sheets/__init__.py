"""What's My Number?'s printed kit (the game's ``planner`` orders its pages): ``player_sheets``
(order forms, deduction sheets), ``deduction_pairs`` (two deduction sheets a page),
``number_slips`` (the secret-number slips), ``host_sheets``
(the turn-report grids), ``register`` (the secret register), ``examples`` (the worked examples)
and ``people`` (the players and answers as printed, shared with the reports and the console).
"""
