"""Ontology completion (KG vs ontology divergence, k-medoids proposals, curator review) and KG condensation.

Inputs are small typed records (`completion.types`): class-attribute pairs, named individuals and
their attribute values (`OntologyView`), KG triples (`KGTriple`). Modules, in pipeline order:

    sources, workspace_io, ontology_adapter   read the inputs (RDF via SPARQL, JSON, workspace layers)
    names, linking, phrases                   'subject relation' phrases; KG subjects typed by name
    divergence                                PCA + shrinkage Gaussians, log-space priority, region
    clustering                                FasterPAM on cosine distances, k by silhouette
    coverage, proposals                       clusters → ranked proposals (covered / generic / class)
    pipeline, service                         one run; a workspace run that keeps earlier decisions
    proposals_file, review, apply, target,    the editable YAML, accept/reject, apply to an
    versions                                  `OntologyTarget`, schema history with diffs
    condensation, condense_llm (f_con),       canonical relations + merged duplicates (reversible),
    condense_measure, condense_ws             figures, and the workspace command with --undo
    plot, commands                            the Figure-2-like PNG; the CLI
"""
