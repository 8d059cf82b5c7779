"""Region Select on the handheld: choosing, drawing and solving surfaces."""
