"""Pure logic: no file, network or clock access. Time is always passed in."""
