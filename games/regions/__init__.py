"""Region Select: the knot-theory puzzle of the seed 001 (Kawauchi, Shimizu, Kishimoto).

`rules` holds the pure engine (shadows, dual surfaces, drawings, puzzles, solver); `render`
draws a surface with pygame for the `regions-gen` tool.
"""
