"""Players' records: ratings, statistics and the picture of a game's score.

Pure code over finished games' facts; the store keeps them, the domain calls these.
"""
