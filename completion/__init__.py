"""Ontology completion (KG vs ontology divergence, k-medoids proposals) and KG condensation."""
