"""workflow/scripts/coverage_plot.py — called via script: from rule plot_coverage."""
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

df = pd.read_csv(snakemake.input[0], sep="\t", names=["chrom", "start", "end", "depth"])
fig, ax = plt.subplots(figsize=(8, 3))
ax.hist(df["depth"].clip(upper=300), bins=60, color="#3b6e8f")
ax.set_xlabel("depth")
ax.set_ylabel("targets")
ax.set_title(snakemake.wildcards.sample)
fig.tight_layout()
fig.savefig(snakemake.output[0], dpi=150)
