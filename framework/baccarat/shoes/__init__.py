"""Shoes: seeded shoes, compiled bulk dealing, the round table every strategy walks, recorded shoes from files."""
