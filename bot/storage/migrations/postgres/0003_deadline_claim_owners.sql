-- Who claimed a deadline (issue 31): the process id of the claimer's presence session, which
-- holds the advisory lock (OWNER_CLASS, that id) for as long as the process lives. A claim whose
-- owner holds it no longer is free at once, instead of when its lease runs out; a claim with no
-- owner (NULL) waits out its lease as before.
ALTER TABLE games ADD COLUMN deadline_claimed_by integer;
