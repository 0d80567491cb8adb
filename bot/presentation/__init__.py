"""What every adapter shows, in words and buttons: the locales, the text of views and events, the
button keys and the hand's steps. An adapter adds only its own widgets around these."""
