import type { FieldDefinition, FieldValue } from '@signet/contract';
import { useId, useState } from 'react';
import { format, type ViewerMessages } from '../i18n/messages.js';
import { DataUrlImage } from '../signature/DataUrlImage.js';
import { PHOTO_TYPES, photoDataUrl } from './photo.js';

export interface PhotoInputProps {
  field: FieldDefinition;
  imageData: string | undefined;
  readOnly: boolean;
  messages: ViewerMessages;
  attributes: Record<string, unknown>;
  onChange(value: FieldValue): void;
}

/**
 * An image field: a file input (the camera on a phone) behind a button naming the field, and the chosen photo or
 * scan shown in the field's box. A file that cannot be used says why.
 * @example <PhotoInput field={field} imageData={value?.imageData} readOnly={false} messages={messages} … />
 */
export function PhotoInput({ field, imageData, readOnly, messages, attributes, onChange }: PhotoInputProps) {
  const inputId = useId();
  const [error, setError] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    const result = await photoDataUrl(file);
    if ('dataUrl' in result) {
      setError(null);
      onChange({ type: 'image', imageData: result.dataUrl });
    } else {
      setError(result.error === 'too-large' ? format(messages.imageTooLarge, { size: '1 MB' }) : messages.invalidImage);
    }
  };
  return (
    <div className="signet-photo">
      {imageData && <DataUrlImage src={imageData} className="signet-photo-image" />}
      {!readOnly && (
        <>
          <input
            {...attributes}
            id={inputId}
            type="file"
            accept={PHOTO_TYPES.join(',')}
            className="signet-visually-hidden signet-photo-file"
            onChange={(event) => {
              const input = event.currentTarget;
              void choose(input.files?.[0]).finally(() => {
                input.value = '';
              });
            }}
          />
          <label htmlFor={inputId} className="signet-photo-button" data-has-image={imageData ? '' : undefined}>
            {imageData ? messages.imageChange : messages.imageAdd}
          </label>
        </>
      )}
      {error && (
        <span className="signet-photo-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
