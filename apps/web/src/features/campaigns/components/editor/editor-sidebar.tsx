import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useContactLists, useSegments } from '../../api/use-editor-data';
import { BlockInspector } from './block-inspector';
import { DesignElements } from './design-elements';
import { LogoLibrary } from './logo-library';
import { PreSendChecklist } from './pre-send-checklist';
import { SavedBlocks } from './saved-blocks';
import { CampaignSettings, RecipientPicker } from './settings-panel';
import { SETTINGS_FIELDS, type CampaignDraftState, type LeftTab } from './use-campaign-draft';
import type { useEditorImages } from './use-editor-images';
import type { PreSendChecksState } from './use-pre-send-checks';
import type { useSenderChoices } from './use-sender-choices';

/**
 * The editor's left column: the Settings tab (campaign settings and recipients) and the Design tab
 * (the selected block's Edit Component panel, Design Elements and the Logo Library). A campaign
 * written in its own HTML has no blocks, so no Design tab.
 */
export function EditorSidebar({
  draft,
  senders,
  images,
  checks,
}: {
  draft: CampaignDraftState;
  checks: PreSendChecksState;
  senders: ReturnType<typeof useSenderChoices>;
  images: ReturnType<typeof useEditorImages>;
}) {
  const lists = useContactLists(true);
  const segments = useSegments(true);
  const { draft: values, errors, selectedBlock } = draft;
  const htmlMode = values.rawHtml !== null;
  const settingsErrorCount = Object.keys(errors.fields).filter((field) => SETTINGS_FIELDS.has(field)).length;

  return (
    <aside
      aria-label="Campaign settings and design"
      className="border-b lg:min-h-0 lg:overflow-y-auto lg:border-r lg:border-b-0"
    >
      <Tabs
        value={htmlMode ? 'settings' : draft.leftTab}
        onValueChange={(value) => draft.setLeftTab(value as LeftTab)}
        className="gap-0"
      >
        <div className="bg-background/95 sticky top-0 z-10 border-b px-4 py-3 backdrop-blur">
          <TabsList className="w-full">
            <TabsTrigger value="settings">
              Settings
              {settingsErrorCount > 0 && (
                <span className="bg-destructive text-destructive-foreground rounded-full px-1.5 text-[10px] leading-4">
                  {settingsErrorCount}
                  <span className="sr-only"> {settingsErrorCount === 1 ? 'error' : 'errors'}</span>
                </span>
              )}
            </TabsTrigger>
            {!htmlMode && <TabsTrigger value="design">Design</TabsTrigger>}
          </TabsList>
        </div>
        <TabsContent value="settings" className="space-y-6 p-4">
          <PreSendChecklist
            state={checks}
            showSettings={() => draft.setLeftTab('settings')}
            selectBlock={(id) => draft.selectBlock(id)}
          />
          <CampaignSettings values={values} errors={errors.fields} senders={senders} onChange={draft.editSettings} />
          <RecipientPicker
            lists={lists}
            segments={segments}
            listIds={values.listIds}
            segmentIds={values.segmentIds}
            selection={draft.selection}
            onSelection={draft.chooseSelection}
            error={errors.fields.listIds ?? errors.fields.segmentIds}
            onListIds={(listIds) => draft.patchDraft({ listIds })}
            onSegmentIds={(segmentIds) => draft.patchDraft({ segmentIds })}
          />
        </TabsContent>
        <TabsContent value="design" className="space-y-6 p-4">
          {selectedBlock && (
            <BlockInspector
              key={selectedBlock.id}
              block={selectedBlock}
              error={errors.blocks[selectedBlock.id]}
              uploading={images.uploading}
              onContent={(patch) => draft.editBlockContent(selectedBlock.id, patch)}
              onStyles={(patch) => draft.editBlockStyles(selectedBlock.id, patch)}
              onResetStyles={() => draft.resetBlockStyles(selectedBlock.id)}
              onUploadImage={(file) => images.uploadForBlock(selectedBlock.id, file)}
              onColumnCount={(count) => draft.setColumnCount(selectedBlock.id, count)}
              onCondition={(condition) => draft.editBlockCondition(selectedBlock.id, condition)}
              segments={segments.data ?? []}
              onClose={() => draft.selectBlock(null)}
            />
          )}
          <DesignElements onAdd={(type) => draft.addBlock(type)} />
          <SavedBlocks onAdd={(blocks) => draft.addSaved(blocks)} />
          <LogoLibrary onInsert={images.insertLogo} />
        </TabsContent>
      </Tabs>
    </aside>
  );
}
