"""Report textures that blow the per-level texture memory budget."""
import json
import subprocess
import sys

UNITY = r"C:\Program Files\Unity\Hub\Editor\2022.3.41f1\Editor\Unity.exe"

BUDGETS = {"Lighthouse": {"android_mb": 180, "pc_mb": 600}, "Harbour": {"android_mb": 220, "pc_mb": 700}}


def export_texture_report(project_path, out_file):
    subprocess.run([UNITY, "-batchmode", "-nographics", "-quit", "-projectPath", project_path,
                    "-executeMethod", "Lanternfall.Tools.TextureReport.Export", "-reportPath", out_file], check=True)


def main():
    export_texture_report(".", "texture_report.json")
    with open("texture_report.json", encoding="utf-8") as f:
        report = json.load(f)
    failed = False
    for level, budget in BUDGETS.items():
        used = sum(t["android_bytes"] for t in report["textures"] if t["level"] == level) / 1e6
        if used > budget["android_mb"]:
            print(f"{level}: {used:.0f} MB over budget {budget['android_mb']} MB")
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
