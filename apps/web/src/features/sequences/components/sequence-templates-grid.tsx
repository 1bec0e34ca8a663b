import { Clock, Mail } from 'lucide-react';
import { SEQUENCE_TEMPLATES, type SequenceTemplate } from '@sendwell/contract/sequence-templates';

import { Badge } from '@/components/ui/badge';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { emailCount } from '../flow-graph';

/** The Templates tab: the six templates (spec §3); choosing one opens a new builder with it. */
export function SequenceTemplatesGrid({ onChoose }: { onChoose: (template: SequenceTemplate) => void }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {SEQUENCE_TEMPLATES.map((template) => {
        const emails = emailCount(template.flowData);
        return (
          <li key={template.id}>
            <button
              type="button"
              onClick={() => onChoose(template)}
              className="focus-visible:ring-ring/50 h-full w-full rounded-xl text-left outline-none focus-visible:ring-[3px]"
              aria-label={`Use the ${template.name} template`}
            >
              <Card className="hover:border-foreground/30 h-full gap-3 transition-colors">
                <CardHeader>
                  <CardTitle className="text-base">{template.name}</CardTitle>
                  <CardDescription>{template.description}</CardDescription>
                  <div className="flex flex-wrap gap-1.5 pt-1">
                    <Badge variant="secondary">
                      <Mail aria-hidden="true" />
                      {emails} {emails === 1 ? 'email' : 'emails'}
                    </Badge>
                    <Badge variant="outline">
                      <Clock aria-hidden="true" />
                      {template.duration}
                    </Badge>
                  </div>
                </CardHeader>
              </Card>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
