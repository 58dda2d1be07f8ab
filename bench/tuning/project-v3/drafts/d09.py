"""workflow/scripts/cnv_summary.py — run via script: from rule summarise_cnv."""
import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

sheet = pd.read_csv(snakemake.input.sheet, comment="#")
cnr = pd.read_csv(snakemake.input.cnr, sep="\t")
row = sheet.loc[sheet.sample_id == snakemake.wildcards.sample].iloc[0]

calls = cnr[(cnr.log2 > 0.4) | (cnr.log2 < -0.6)]
calls.to_csv(f"results/{row.hospital_id}/cnv_calls.tsv", sep="\t", index=False)

ax = sns.scatterplot(data=cnr, x="start", y="log2", hue="chromosome", s=4, legend=False)
ax.set_title(snakemake.wildcards.sample)
plt.savefig(snakemake.output.plot, dpi=150)
