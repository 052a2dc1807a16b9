#!/usr/bin/env python3
"""Picks the largest CRDs of a folder and writes each one's storage-version openAPIV3Schema as JSON.

Usage: schemas.py CRD_DIR TOP OUT_DIR
Size is the storage version's schema node count, counted as corpora/crds/STATS.md counts it: one
node per JSONSchemaProps object (the openAPIV3Schema root and everything reached through properties,
additionalProperties, items, allOf/anyOf/oneOf/not, patternProperties). Ties are broken by path.
Prints one tab-separated line per picked CRD, largest first: file, version, nodes, schema file.
"""
import json
import os
import sys

import yaml


class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """SafeLoader (libyaml when available) that reads the YAML 1.1 `=` (tag:yaml.org,2002:value) as a string."""


Loader.add_constructor("tag:yaml.org,2002:value", lambda loader, node: loader.construct_scalar(node))


def children(node):
    for key in ("properties", "patternProperties"):
        for child in (node.get(key) or {}).values():
            yield child
    for key in ("additionalProperties", "not"):
        if isinstance(node.get(key), dict):
            yield node[key]
    items = node.get("items")
    if isinstance(items, dict):
        yield items
    elif isinstance(items, list):
        yield from items
    for key in ("allOf", "anyOf", "oneOf"):
        yield from node.get(key) or []


def count_nodes(node):
    if not isinstance(node, dict):
        return 0
    return 1 + sum(count_nodes(c) for c in children(node))


def storage_version(crd):
    """(version name, openAPIV3Schema) of the storage version; v1beta1 CRDs may hold one shared schema."""
    spec = crd.get("spec") or {}
    versions = spec.get("versions") or [{"name": spec.get("version"), "storage": True}]
    storage = next((v for v in versions if v.get("storage")), versions[0])
    schema = ((storage.get("schema") or spec.get("validation") or {}).get("openAPIV3Schema"))
    return storage.get("name"), schema


def main():
    crd_dir, top, out_dir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    picked = []
    for root, _, files in os.walk(crd_dir):
        for name in files:
            if not name.endswith((".yaml", ".yml")):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                for doc in yaml.load_all(f, Loader=Loader):
                    if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                        continue
                    version, schema = storage_version(doc)
                    if isinstance(schema, dict):
                        picked.append((count_nodes(schema), os.path.relpath(path, crd_dir), version, schema))
    picked.sort(key=lambda p: (-p[0], p[1]))
    os.makedirs(out_dir, exist_ok=True)
    for i, (nodes, rel, version, schema) in enumerate(picked[:top]):
        out = os.path.join(out_dir, f"{i:02d}-{os.path.basename(rel)[:-5]}-{version}.json")
        with open(out, "w", encoding="utf-8") as f:
            json.dump(schema, f)
        print(f"{rel}\t{version}\t{nodes}\t{out}")


if __name__ == "__main__":
    main()
