"""HAL backends: headless (tests, benchmarks, `twinfold headless`), desktop (the emulator
lives in the top-level `emulator` package) and, on the handheld, the Raspberry Pi devices."""
