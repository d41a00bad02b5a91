"""The Figure-2-like picture: both layers' phrases in 2-D, the high-priority region, the medoids.

The axes are the first two principal axes of the space the Gaussians were fitted in (saved by the
run in plot.npz), so the picture shows the geometry the priority was computed from.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from pyramid.errors import Hint, InputError

LABELLED_MEDOIDS = 12


def plot(npz: Path, out: Path, *, title: str = "Ontology vs KG phrases") -> Path:
    if not npz.exists():
        raise InputError("no completion run to draw", path=npz, hint=Hint(action="run_completion"))
    import matplotlib

    matplotlib.use("Agg")   # files only; no display on a server
    import matplotlib.pyplot as plt

    d = np.load(npz, allow_pickle=False)
    kg, high, counts = d["kg_xy"], d["kg_high"].astype(bool), d["kg_counts"]
    size = 4 + 3 * np.sqrt(counts)
    fig, ax = plt.subplots(figsize=(10, 8), dpi=120)
    ax.scatter(kg[~high, 0], kg[~high, 1], s=size[~high], c="#b8c4d6", alpha=0.5, linewidths=0,
               label="KG phrases")
    ax.scatter(kg[high, 0], kg[high, 1], s=size[high], c="#e0823d", alpha=0.55, linewidths=0,
               label="KG phrases, high priority")
    onto = d["onto_xy"]
    ax.scatter(onto[:, 0], onto[:, 1], marker="*", s=160, c="#1f4e9c", edgecolors="white", linewidths=0.6,
               label="ontology class-attribute phrases", zorder=3)
    for (x, y), text in zip(onto, d["onto_text"]):
        ax.annotate(str(text), (x, y), fontsize=7, color="#1f4e9c", xytext=(4, 3), textcoords="offset points")
    med = d["medoid_xy"]
    if len(med):
        ax.scatter(med[:, 0], med[:, 1], marker="X", s=70, c="black", label="proposals (medoids)", zorder=4)
        for (x, y), text in list(zip(med, d["medoid_label"]))[:LABELLED_MEDOIDS]:
            ax.annotate(str(text), (x, y), fontsize=7, xytext=(4, -9), textcoords="offset points")
    ax.set_xlabel("PC 1")
    ax.set_ylabel("PC 2")
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8, markerscale=0.8)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    tmp.replace(out)
    return out
