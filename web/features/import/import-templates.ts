import type { ImportFormat } from '../../../common/import/types';

/** Examples each parser accepts as they are; the Templates tab shows them and can load one into the form. */
export const IMPORT_TEMPLATES: Record<ImportFormat, { title: string; description: string; content: string }> = {
  csv: {
    title: 'CSV',
    description:
      'A header row with question and answer columns. Optional columns: tags (separated by semicolons), source and confidence. Put values that contain commas in double quotes.',
    content: `question,answer,tags
"Do you encrypt customer data at rest?","Yes, all customer data is encrypted at rest with AES-256.",encryption;data protection
"Do you support single sign-on (SSO)?","Yes, we support SAML 2.0 and OpenID Connect with any standard identity provider.",sso;authentication
"How often do you run penetration tests?","An independent firm tests the application and infrastructure at least once a year.",pentest;security testing
`,
  },
  json: {
    title: 'JSON',
    description:
      'An array of objects with question and answer. Optional fields: tags (an array), source and confidence (0–100).',
    content: `[
  {
    "question": "Do you encrypt customer data at rest?",
    "answer": "Yes, all customer data is encrypted at rest with AES-256.",
    "tags": ["encryption", "data protection"]
  },
  {
    "question": "Do you have a documented incident response plan?",
    "answer": "Yes. It is reviewed yearly and tested with a tabletop exercise.",
    "tags": ["incident response"],
    "confidence": 90
  }
]
`,
  },
  manual: {
    title: 'Plain Text',
    description:
      'A question line followed by its answer, with a blank line between pairs. The Q: and A: prefixes are optional.',
    content: `Q: Do you encrypt customer data at rest?
A: Yes, all customer data is encrypted at rest with AES-256.

Q: Is multi-factor authentication enforced for employees?
A: Yes, every employee account requires MFA with a hardware key or an authenticator app.
`,
  },
};

export const FORMAT_LABELS: Record<ImportFormat, string> = { csv: 'CSV', json: 'JSON', manual: 'Plain Text' };
