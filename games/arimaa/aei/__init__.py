"""AEI v1 engine front end for the Arimaa computer player (`twinfold aei`)."""
