"""The training example (python/examples/train.py) runs: a few steps, not the training."""

import importlib.util

import numpy as np


def test_the_training_example_learns_from_a_few_games(root):
    spec = importlib.util.spec_from_file_location("train", root / "python" / "examples" / "train.py")
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    theta, curve, feats = train.train(iterations=2, games=2, seed=1, log=None)
    assert len(curve) == 2 and theta.shape == (feats.size,)
    # The policy moved from the random bot's (all weights zero) after the first batch.
    assert np.all(np.isfinite(theta)) and np.abs(theta).sum() > 0
