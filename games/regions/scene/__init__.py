"""Region Select on the handheld: choosing, drawing and solving surfaces. The scene is play.py;
the screens are drawn by top_view.py and bottom_view.py (the surface itself by
surface_view.py). Import the module you mean."""
