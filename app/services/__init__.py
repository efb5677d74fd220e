"""What the routers call: running programs, laying out graphs, examples, pages."""
