"""The decision log: screenings, their items and every decision as an appended event
(store), the label schemes (labels), and decision rows read from CSV (decision_rows)."""
