"""The D100 II engine's formats for other tools: MEG out (:mod:`.meg`) and in (:mod:`.meg_read`),
a Foundry VTT ``brp`` actor (:mod:`.foundry`), and Obsidian Fantasy Statblocks notes with their
layout file (:mod:`.statblock`); :mod:`.d100view` is what they read of a character besides its view.

Importing this package registers the three output formats in :data:`chargen.formats.FORMATS`
(:data:`chargen.formats.BUILTIN` names it).
"""

from chargen.formats import register
from chargen.systems.d100.interop import foundry, meg, statblock

FORMATS = (meg.MegFormat(), foundry.FoundryFormat(), statblock.StatblockFormat(), foundry.FoundryNpcFormat())

for _fmt in FORMATS:
    register(_fmt)
