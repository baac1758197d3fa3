"""Trainers: learn a model's vocabulary from word counts."""
