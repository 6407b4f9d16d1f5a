"""Tables players build, share and generate: the pieces (:mod:`engine.tables.pieces`), the
table and its edits (:mod:`engine.tables.layout`), its text file (:mod:`engine.tables.file`),
random tables (:mod:`engine.tables.generate`) and scenarios on any table
(:mod:`engine.tables.scenario_ground`)."""
