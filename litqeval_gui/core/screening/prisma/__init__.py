"""The PRISMA 2020 flow: every work placed in one box (flow), its counts and equations
(counts), the numbers the user enters (entered), and the diagram and its CSV (diagram)."""
