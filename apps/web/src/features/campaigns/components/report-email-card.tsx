import * as React from 'react';
import { Monitor, Smartphone } from 'lucide-react';
import type { CampaignDetail } from '@sendwell/contract/campaigns';

import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ToggleGroup, ToggleGroupItem } from '@/components/ui/toggle-group';
import { EmailFrame, PREVIEW_WIDTHS, type PreviewMode } from './email-frame';

/** The email as the server stored it, in the same sandboxed frame as the editor's preview. */
export function EmailContentCard({ campaign }: { campaign: CampaignDetail }) {
  const [mode, setMode] = React.useState<PreviewMode>('desktop');
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Email</h2>
        </CardTitle>
        <CardDescription className="break-words">Subject: {campaign.subject}</CardDescription>
        <CardAction>
          <ToggleGroup
            type="single"
            variant="outline"
            size="sm"
            value={mode}
            onValueChange={(next) => next && setMode(next as PreviewMode)}
            aria-label="Preview width"
          >
            <ToggleGroupItem value="desktop" aria-label="Desktop preview">
              <Monitor aria-hidden="true" />
            </ToggleGroupItem>
            <ToggleGroupItem value="mobile" aria-label="Mobile preview">
              <Smartphone aria-hidden="true" />
            </ToggleGroupItem>
          </ToggleGroup>
        </CardAction>
      </CardHeader>
      <CardContent>
        <div className="bg-muted/60 relative h-[560px] overflow-hidden rounded-lg border">
          {campaign.content.html ? (
            <EmailFrame
              html={campaign.content.html}
              width={PREVIEW_WIDTHS[mode]}
              title={`Campaign email (${mode})`}
              mode={mode}
            />
          ) : (
            <p className="text-muted-foreground p-6 text-sm">This campaign has no content.</p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
