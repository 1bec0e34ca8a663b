import type { BlockStyles, EmailBlock } from '@sendwell/contract/campaigns';

import { STYLE_DEFAULTS } from '../../editor/blocks';
import { ColorField, NumberField } from './style-fields';

/** Style fields to set on a block; an undefined value removes the field, so the default applies again. */
export type StylePatch = Partial<Record<keyof BlockStyles, unknown>>;

/** The colour and size fields that fit the block's type, two to a row, each showing its default when unset. */
export function BlockStyleFields({
  id,
  block,
  onStyles,
}: {
  id: string;
  block: EmailBlock;
  onStyles: (patch: StylePatch) => void;
}) {
  const s = block.styles;
  return (
    <div className="grid grid-cols-2 gap-3">
      {(block.type === 'text' || block.type === 'heading') && (
        <>
          <ColorField
            id={`${id}-color`}
            label="Text colour"
            value={s.color}
            fallback={STYLE_DEFAULTS.textColor}
            onChange={(v) => onStyles({ color: v })}
          />
          <ColorField
            id={`${id}-bg`}
            label="Background"
            value={s.backgroundColor}
            fallback={null}
            onChange={(v) => onStyles({ backgroundColor: v })}
          />
          <NumberField
            id={`${id}-font-size`}
            label="Font size"
            unit="px"
            value={s.fontSize}
            fallback={STYLE_DEFAULTS.fontSize[block.content.tag]}
            min={8}
            max={72}
            onChange={(v) => onStyles({ fontSize: v })}
          />
          <NumberField
            id={`${id}-padding`}
            label="Padding"
            unit="px"
            value={s.padding}
            fallback={STYLE_DEFAULTS.textPadding}
            min={0}
            max={80}
            onChange={(v) => onStyles({ padding: v })}
          />
        </>
      )}
      {(block.type === 'social' || block.type === 'video' || block.type === 'html' || block.type === 'columns') && (
        <>
          <ColorField
            id={`${id}-bg`}
            label="Background"
            value={s.backgroundColor}
            fallback={null}
            onChange={(v) => onStyles({ backgroundColor: v })}
          />
          <NumberField
            id={`${id}-padding`}
            label="Padding"
            unit="px"
            value={s.padding}
            fallback={block.type === 'html' || block.type === 'columns' ? 0 : STYLE_DEFAULTS.blockPadding}
            min={0}
            max={80}
            onChange={(v) => onStyles({ padding: v })}
          />
        </>
      )}
      {block.type === 'image' && (
        <>
          <NumberField
            id={`${id}-width`}
            label="Width"
            unit="%"
            value={s.width}
            fallback={STYLE_DEFAULTS.imageWidth}
            min={10}
            max={100}
            onChange={(v) => onStyles({ width: v })}
          />
          <NumberField
            id={`${id}-padding`}
            label="Padding"
            unit="px"
            value={s.padding}
            fallback={STYLE_DEFAULTS.blockPadding}
            min={0}
            max={80}
            onChange={(v) => onStyles({ padding: v })}
          />
          <ColorField
            id={`${id}-bg`}
            label="Background"
            value={s.backgroundColor}
            fallback={null}
            onChange={(v) => onStyles({ backgroundColor: v })}
          />
        </>
      )}
      {block.type === 'button' && (
        <>
          <ColorField
            id={`${id}-bg`}
            label="Button colour"
            value={s.backgroundColor}
            fallback={STYLE_DEFAULTS.buttonBackground}
            onChange={(v) => onStyles({ backgroundColor: v })}
          />
          <ColorField
            id={`${id}-color`}
            label="Text colour"
            value={s.color}
            fallback={STYLE_DEFAULTS.buttonColor}
            onChange={(v) => onStyles({ color: v })}
          />
          <NumberField
            id={`${id}-font-size`}
            label="Font size"
            unit="px"
            value={s.fontSize}
            fallback={STYLE_DEFAULTS.buttonFontSize}
            min={8}
            max={72}
            onChange={(v) => onStyles({ fontSize: v })}
          />
          <NumberField
            id={`${id}-radius`}
            label="Corner radius"
            unit="px"
            value={s.borderRadius}
            fallback={STYLE_DEFAULTS.buttonRadius}
            min={0}
            max={40}
            onChange={(v) => onStyles({ borderRadius: v })}
          />
          <NumberField
            id={`${id}-padding`}
            label="Padding"
            unit="px"
            value={s.padding}
            fallback={STYLE_DEFAULTS.blockPadding}
            min={0}
            max={80}
            onChange={(v) => onStyles({ padding: v })}
          />
        </>
      )}
      {block.type === 'divider' && (
        <>
          <ColorField
            id={`${id}-color`}
            label="Line colour"
            value={s.color}
            fallback={STYLE_DEFAULTS.dividerColor}
            onChange={(v) => onStyles({ color: v })}
          />
          <NumberField
            id={`${id}-padding`}
            label="Padding"
            unit="px"
            value={s.padding}
            fallback={0}
            min={0}
            max={80}
            onChange={(v) => onStyles({ padding: v })}
          />
        </>
      )}
      {block.type === 'spacer' && (
        <>
          <NumberField
            id={`${id}-height`}
            label="Height"
            unit="px"
            value={s.height}
            fallback={STYLE_DEFAULTS.spacerHeight}
            min={0}
            max={400}
            onChange={(v) => onStyles({ height: v })}
          />
          <ColorField
            id={`${id}-bg`}
            label="Background"
            value={s.backgroundColor}
            fallback={null}
            onChange={(v) => onStyles({ backgroundColor: v })}
          />
        </>
      )}
    </div>
  );
}
