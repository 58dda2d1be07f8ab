-- Forethought schema, version 7: project memory keeps the eight kinds of rule (decision,
-- convention, constraint, preference, failed_approach, dependency_policy, process,
-- architecture). Records of the four retired kinds are renamed in place, every version of
-- every lineage, with their attributes carried over to the new kind's fields.
UPDATE records SET kind = 'constraint'
    WHERE kind IN ('security_constraint', 'api_contract')
      AND space_id IN (SELECT id FROM spaces WHERE subject_type = 'project');

UPDATE records SET kind = 'process'
    WHERE kind = 'deployment'
      AND space_id IN (SELECT id FROM spaces WHERE subject_type = 'project');

UPDATE records SET kind = 'failed_approach',
    attributes = json_set(
        json_remove(attributes, '$.what', '$.impact'),
        '$.approach', json_extract(attributes, '$.what'),
        '$.why_failed', json_extract(attributes, '$.impact'))
    WHERE kind = 'incident'
      AND space_id IN (SELECT id FROM spaces WHERE subject_type = 'project');
