"""Campaign-game bookkeeping: pure rules and data, no Discord, no database, no drawing.

Red Barricades CG III (``engine.campaign.red_barricades``): the CG calendar and Historical DRM
(``calendar``), the RG charts, SW chart and Fortification Table as data (``rg_chart``), CPP and
FPP purchases (``purchases``), the rolls a purchase needs (``refit_rolls``) and the ledger of
every purchase, roll and correction (``ledger``).

Linked Iron Cross battles (``linked``): scenarios chained into a campaign, each side's force
carrying its losses, earning reinforcement points and spending them through the force builder.
"""
