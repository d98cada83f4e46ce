"""A class's answers: the poll's questions and ballots, their tally and the history of classes."""
