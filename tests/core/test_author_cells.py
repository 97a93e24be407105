"""Authors cells of generic tables: split on ';' always, on ',' only between whole names."""

import pytest

from litqeval_gui.core.jobs import run_job
from litqeval_gui.core.records.importing import read_records
from litqeval_gui.core.records.importing.common import split_authors


@pytest.mark.parametrize("cell, authors", [
    ("Jane Smith, John Doe, Ann Lee", ["Jane Smith", "John Doe", "Ann Lee"]),
    ("Smith J, Doe A, Lee AB", ["Smith J", "Doe A", "Lee AB"]),  # surname + initials
    ("Smith J., Doe A.", ["Smith J.", "Doe A."]),
    ("Smith, Jane; Doe, John", ["Smith, Jane", "Doe, John"]),  # ';' wins, ',' inside names
    ("Smith, J.; Doe, A.", ["Smith, J.", "Doe, A."]),
    ("Smith, J.", ["Smith, J."]),  # one author, surname first
    ("Smith, Jane", ["Smith, Jane"]),
    ("Smith, Jane Anne", ["Smith, Jane Anne"]),
    ("van der Berg, Jan Peter", ["van der Berg, Jan Peter"]),  # a particle: not a whole name
    ("Smith Jr., John", ["Smith Jr., John"]),
    ("Smith, J., Doe, A.", ["Smith, J., Doe, A."]),  # ambiguous: kept whole, never mangled
    ("Jane Smith", ["Jane Smith"]),
    ("", []),
])
def test_split_authors(cell, authors):
    assert split_authors(cell) == authors


def test_a_generic_csv_with_comma_separated_names_imports_each_author(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text('Title,Authors,Year\n'
                    '"Screening with active learning","Rens van de Schoot, Jonathan de Bruin",'
                    '2021\n'
                    '"A single author, surname first","Smith, J.",2020\n', encoding="utf-8")
    first, second = run_job(read_records(path)).records
    assert first.authors == ["Rens van de Schoot", "Jonathan de Bruin"]
    assert second.authors == ["Smith, J."]
