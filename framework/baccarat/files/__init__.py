"""Files in and out: input files read safely, YAML with positions, output written whole or not at all."""
