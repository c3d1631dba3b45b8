"""Rules texts shown by `rummylab rules GAME`."""
