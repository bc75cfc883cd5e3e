"""Team notes: validation errors name the file, the entry and the field; valid notes add edges."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from dw_assets.core.notes import NotesError, apply_notes, load_notes
from tests.support.graph_builders import night2_graph

GOOD = {"from": "app.orders", "to": "airflow:orders_daily.orders_clean", "relation": "reads",
        "author": "jonas.berg", "source": "DATA-1423", "recorded_at": "2026-05-12"}


def write(tmp_path: Path, entries: object) -> Path:
    path = tmp_path / "notes.yaml"
    path.write_text(yaml.safe_dump({"notes": entries}))
    return path


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        pytest.param({"author": None}, "author", "valid string", id="author-null"),
        pytest.param({"recorded_at": "last tuesday"}, "recorded_at", "date", id="bad-date"),
        pytest.param({"relation": "copies"}, "relation", "reads", id="bad-relation"),
        pytest.param({"sauce": "x"}, "sauce", "not a known field", id="typo-field"),
        pytest.param({"to_node": {"kind": "table", "system": "app"}}, "to_node.kind", "must be one of",
                     id="bad-node-kind"),
    ],
)
def test_invalid_entry_names_file_entry_and_field(tmp_path: Path, change: dict, field: str, message: str) -> None:
    path = write(tmp_path, [GOOD, {**GOOD, **change}])
    with pytest.raises(NotesError) as err:
        load_notes(path)
    (problem,) = err.value.problems
    assert (problem.index, problem.field) == (1, field)
    assert problem.endpoints == "app.orders -> airflow:orders_daily.orders_clean"
    assert message in problem.message
    assert str(path) in str(err.value) and f"entry 1 (app.orders -> airflow:orders_daily.orders_clean): field {field}" \
        in str(err.value)


def test_missing_fields_are_all_reported(tmp_path: Path) -> None:
    path = write(tmp_path, [{"from": "a.b", "to": "c.d"}])
    with pytest.raises(NotesError) as err:
        load_notes(path)
    assert {p.field for p in err.value.problems} == {"relation", "author", "source", "recorded_at"}
    assert all(p.message == "is required" for p in err.value.problems)


@pytest.mark.parametrize(
    ("content", "field"),
    [pytest.param("notes: {a: 1}\n", "notes", id="not-a-list"), pytest.param("notes: [\n", "(file)", id="bad-yaml"),
     pytest.param("notes:\n  - 3\n", "(entry)", id="entry-not-mapping")],
)
def test_malformed_files(tmp_path: Path, content: str, field: str) -> None:
    path = tmp_path / "notes.yaml"
    path.write_text(content)
    with pytest.raises(NotesError) as err:
        load_notes(path)
    assert err.value.problems[0].field == field and err.value.path == str(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NotesError, match="does not exist"):
        load_notes(tmp_path / "nope.yaml")


def test_apply_adds_edges_with_note_provenance_and_declared_nodes(tmp_path: Path) -> None:
    reader = {"from": "revenue_dashboard", "to": "reader:finance_leadership", "relation": "reads",
              "author": "priya.raman", "source": "https://wiki/rev", "recorded_at": "2026-06-03",
              "to_node": {"kind": "reader", "system": "tableau", "name": "Finance leadership",
                          "owner": "finance-leadership", "attrs": {"criticality": "high"}}}
    g = night2_graph()
    notes = load_notes(write(tmp_path, [GOOD, reader]))
    apply_notes(g, notes)
    (edge,) = [e for e in g.edges_of("app.orders")]
    note = [p for p in edge.provenance if p.origin == "note"][-1]
    assert (note.author, note.source, note.recorded_at) == ("jonas.berg", "DATA-1423", date(2026, 5, 12))
    leader = g.node("reader:finance_leadership")
    assert (leader.kind, leader.owner, leader.attrs["criticality"]) == ("reader", "finance-leadership", "high")
    assert g.resolve("Finance leadership") == "reader:finance_leadership"


def test_apply_refuses_undeclared_unknown_and_ambiguous_ends(tmp_path: Path) -> None:
    g = night2_graph()
    g.add_node("finance.orders_clean", "dataset", "warehouse")
    typo = {**GOOD, "from": "app.ordres"}
    ambiguous = {**GOOD, "to": "orders_clean"}
    with pytest.raises(NotesError) as err:
        apply_notes(g, load_notes(write(tmp_path, [GOOD, typo, ambiguous])), "notes.yaml")
    first, second = err.value.problems
    assert (first.index, first.field) == (1, "from") and "not in the graph" in first.message
    assert (second.index, second.field) == (2, "to") and "ambiguous" in second.message


def test_the_demo_estate_notes_are_valid(repo_root: Path) -> None:
    notes = load_notes(repo_root / "estate" / "notes.yaml")
    assert {(n.from_, n.to) for n in notes} >= {
        ("app.orders", "airflow:orders_daily.orders_clean"), ("analytics.fct_revenue", "exposure:revenue_dashboard")}
    assert all(n.author and n.source for n in notes)
