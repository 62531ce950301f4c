"""Files in and out: input files read safely, YAML with positions, single output files written whole.

- :mod:`~baccarat.files.inputfile`: opening a user's input file: regular files only, and never more read than a size
  cap.
- :mod:`~baccarat.files.outfolder`: output files written whole or not at all, and output names the file system can
  hold.
- :mod:`~baccarat.files.yamlfile`: safe YAML with the position of every key and value, for errors that point at the
  spot.
"""

__all__ = ["inputfile", "outfolder", "yamlfile"]
