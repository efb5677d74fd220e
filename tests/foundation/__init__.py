"""Tests of the project as a whole: packaging, the Docker image, deployment files, README."""
