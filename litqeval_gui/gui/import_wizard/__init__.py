"""The import wizard: choose files (``wizard``), check each file's preview (``preview``),
name the lists (``list_settings``), run the imports and show the summary (``summary``);
``messages`` holds the labels and error texts the pages share, ``filter_counts`` the
whole-file counts of the preview's row filter, ``state`` the state the pages share (the
wizard owns it and hands it to each page; no page imports ``wizard``)."""
