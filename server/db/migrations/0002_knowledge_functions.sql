-- array_to_string is only STABLE, so a generated column cannot call it; tags are plain text, so this is immutable.
CREATE OR REPLACE FUNCTION verity_tags_text(tags text[]) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_to_string(tags, ' '), '') $$;
