"""Shared small files for the ingest / CLI tests."""

import pytest

CORE_RIS = """TY  - JOUR
AU  - Smith, Jane
TI  - Semantic precision for literature search evaluation
AB  - We measure how much irrelevant material a query retrieves using embeddings.
PY  - 2021
DO  - 10.1000/core.1
JO  - Journal of Search
ER  -

TY  - JOUR
AU  - Doe, John
TI  - Core publications as a gold standard for query recall
AB  - Known relevant papers allow recall estimates for Boolean queries.
PY  - 2020
DO  - 10.1000/core.2
ER  -

TY  - JOUR
AU  - Lee, Ann
TI  - Minimum volume enclosing ellipsoids in embedding maps
AB  - Khachiyan's algorithm fitted on retrieved core points.
PY  - 2019
ER  -

""".replace("ER  -\n", "ER  - \n")  # RIS wants the space after the dash

# Scopus-like CSV: core.1 by DOI (other form), core.3 by title (no DOI, case changed),
# one duplicate inside the list (same DOI twice), two unrelated records.
RESULTS_CSV = (
    'Authors,Title,Year,Source title,DOI,Abstract\n'
    '"Smith J.","Semantic precision for literature search evaluation",2021,"J Search",'
    '"https://doi.org/10.1000/CORE.1","We measure ..."\n'
    '"Kim H.","Crop rotation and soil nitrogen in temperate farms",2018,"Agron",'
    '"10.2000/agri.7","Fields ..."\n'
    '"Lee A.","MINIMUM VOLUME ENCLOSING ELLIPSOIDS IN EMBEDDING MAPS",2019,"Geom",,'
    '"Khachiyan ..."\n'
    '"Kim H.","Crop rotation and soil nitrogen in temperate farms",2018,"Agron",'
    '"10.2000/agri.7","Fields (again)"\n'
    '"Ng P.","Urban heat islands measured by satellites",2022,"Remote",'
    '"10.3000/heat.1","Satellite ..."\n'
)


@pytest.fixture
def small_files(tmp_path):
    core = tmp_path / "core.ris"
    core.write_text(CORE_RIS, encoding="utf-8")
    results = tmp_path / "scopus.csv"
    results.write_text(RESULTS_CSV, encoding="utf-8")
    return core, results
