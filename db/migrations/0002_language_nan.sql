-- Taiwanese Hokkien is stored as `nan` (ISO 639-3); `tw` is ISO 639-1 for Twi. Rewrite the old code in
-- users.language, keeping the order of the other codes and dropping a duplicate the rewrite may create.
UPDATE "users" SET "language" = ARRAY(
	SELECT "code" FROM (
		SELECT CASE WHEN "entry" = 'tw' THEN 'nan' ELSE "entry" END AS "code", min("position") AS "first"
		FROM unnest("users"."language") WITH ORDINALITY AS "entries"("entry", "position")
		GROUP BY 1
	) AS "codes"
	ORDER BY "first"
)
WHERE 'tw' = ANY("language");
