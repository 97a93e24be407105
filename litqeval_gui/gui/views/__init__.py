"""Views shown in the main window's tabs and its dialogs."""
