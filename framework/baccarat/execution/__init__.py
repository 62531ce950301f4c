"""Running an experiment: planning, workers, output, and the process around them."""
