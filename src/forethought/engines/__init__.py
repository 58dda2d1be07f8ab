"""Recall engines that keep their own index outside the store (the seam is `recall.base.RecallEngine`)."""
