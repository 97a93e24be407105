"""The PRISMA 2020 flow: every work placed in one box and counted (flow), the numbers the
user enters (entered), and the diagram and its CSV (diagram)."""
